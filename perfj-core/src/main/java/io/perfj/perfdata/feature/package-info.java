/**
 * The feature sections of a perf.data file (HEADER_BUILD_ID, HOSTNAME, CMDLINE, EVENT_DESC,
 * BPF_PROG_INFO, BPF_BTF, ...): {@link io.perfj.perfdata.feature.Feature} is a sealed family with
 * one record per feature and a raw variant for the rest; {@link io.perfj.perfdata.feature.Features}
 * decodes them; {@link io.perfj.perfdata.feature.EventNames} names events as perf prints them.
 */
package io.perfj.perfdata.feature;
