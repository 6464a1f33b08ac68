package io.perfj.cli;

/**
 * The entry point of {@code perfj fleet} (the launcher starts it on perfj-fleet's class path):
 * perfj's command line with the fleet command added, the same error policy and exit codes.
 */
public final class FleetMain {
    private FleetMain() {
    }

    public static void main(String[] args) {
        Main.SUBCOMMANDS.put("fleet", () -> new FleetCommand().spec);
        Main.main(args);
    }
}
