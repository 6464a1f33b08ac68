package io.perfj.perfdata.record;

import io.perfj.perfdata.RawRecord;

/** A record whose type number is not one perfj knows (or that perf itself would not accept). */
public record Unknown(RawRecord raw) implements PerfRecord {
}
