package io.perfj.serve;

/** A request the API cannot answer as asked (answered 400 with the message as text). */
final class BadRequest extends RuntimeException {
    BadRequest(String message) {
        super(message, null, false, false);
    }
}
