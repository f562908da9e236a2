package org.jshmem;

/**
 * How a team is made (OpenSHMEM 1.5's {@code shmem_team_config_t}), given to
 * {@link Team#splitStrided(int, int, int, TeamConfig)} and {@link Team#split2d(int, TeamConfig, TeamConfig)}
 * and returned by {@link Team#config()}.
 *
 * @param numContexts the contexts the program means to make over the team with
 *                    {@link Team#createContext}; jshmem sets no limit, so this is a promise the
 *                    team keeps for {@link Team#config()}, not a reservation
 */
public record TeamConfig(int numContexts) {
    /** No contexts announced: the config of the predefined teams and of splits without one. */
    public static final TeamConfig DEFAULT = new TeamConfig(0);

    /** @throws IllegalArgumentException for a negative {@code numContexts} */
    public TeamConfig {
        if (numContexts < 0) {
            throw new IllegalArgumentException("TeamConfig: numContexts must not be negative (got " + numContexts + ")");
        }
    }
}
