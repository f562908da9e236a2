package org.jshmem;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class SessionHintsTest {
    @Test
    void aCountThatIsNotPositiveIsRefusedSayingWhatToDo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SessionHints(false, OptionalLong.of(0)));
        assertTrue(e.getMessage().contains("must be positive, got 0; leave it empty when it is not known"), e.getMessage());
        assertThrows(NullPointerException.class, () -> new SessionHints(true, null));
    }
}
