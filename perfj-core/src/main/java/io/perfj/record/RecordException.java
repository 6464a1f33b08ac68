package io.perfj.record;

/** Recording could not start or go on: one line saying why (printed without a stack trace). */
public class RecordException extends RuntimeException {
    public RecordException(String message) {
        super(message);
    }

    public RecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
