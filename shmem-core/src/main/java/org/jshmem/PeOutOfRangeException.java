package org.jshmem;

/** A PE number outside {@code 0 .. nPes-1} of the job or team it was used with. */
public final class PeOutOfRangeException extends ShmemException {
    private static final long serialVersionUID = 1L;
    private final int pe;

    public PeOutOfRangeException(String call, int pe, int nPes, String where) {
        super(call + ": PE " + pe + " is out of range; " + where + " has " + nPes + " PE"
                + (nPes == 1 ? " (only PE 0)" : "s (0.." + (nPes - 1) + ")")
                + ". Pass a PE number in that range.");
        this.pe = pe;
    }

    /** The PE number that was passed. */
    public int pe() {
        return pe;
    }
}
