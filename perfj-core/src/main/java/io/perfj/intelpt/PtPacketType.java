package io.perfj.intelpt;

/**
 * The kinds of Intel PT packet (Intel SDM vol. 3, 32.4.2), with the name perf's packet dump gives
 * each. The variants perf tells apart by one bit (PTWRITE, EXSTOP, BEP and CFE with or without an
 * IP) are kinds of their own, as in perf, because that bit changes what follows them.
 */
public enum PtPacketType {
    /** Bytes that are no packet; the reader steps one byte. */
    BAD("Bad Packet!"),
    PAD("PAD"),
    TNT("TNT"),
    TIP_PGD("TIP.PGD"),
    TIP_PGE("TIP.PGE"),
    TSC("TSC"),
    TMA("TMA"),
    MODE_EXEC("MODE.Exec"),
    MODE_TSX("MODE.TSX"),
    MTC("MTC"),
    TIP("TIP"),
    FUP("FUP"),
    CYC("CYC"),
    VMCS("VMCS"),
    PSB("PSB"),
    PSBEND("PSBEND"),
    CBR("CBR"),
    TRACESTOP("TraceSTOP"),
    PIP("PIP"),
    OVF("OVF"),
    MNT("MNT"),
    PTWRITE("PTWRITE"),
    PTWRITE_IP("PTWRITE"),
    EXSTOP("EXSTOP"),
    EXSTOP_IP("EXSTOP"),
    MWAIT("MWAIT"),
    PWRE("PWRE"),
    PWRX("PWRX"),
    BBP("BBP"),
    BIP("BIP"),
    BEP("BEP"),
    BEP_IP("BEP"),
    CFE("CFE"),
    CFE_IP("CFE"),
    EVD("EVD");

    private final String label;

    PtPacketType(String label) {
        this.label = label;
    }

    /** The name perf prints. */
    public String label() {
        return label;
    }
}
