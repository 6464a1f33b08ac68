/**
 * JIT runtimes' own dumps of their code ({@code jit-PID.dump}, perf's jitdump format, written by
 * {@code node --perf-prof}, the JVM's jitdump agents, .NET, Wasmtime, LuaJIT):
 * {@link io.perfj.jit.JitDump} reads a file in either byte order, {@link io.perfj.jit.JitCode} is
 * one piece of generated code with its name, bytes and source lines. The session turns a process's
 * code loads into maps of that process at the loads' times, as {@code perf inject --jit} does,
 * without writing any file.
 */
package io.perfj.jit;
