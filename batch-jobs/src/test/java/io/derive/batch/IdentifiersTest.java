package io.derive.batch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IdentifiersTest {

    @Test
    void acceptsPlainIdentifiers() {
        assertThat(Identifiers.isIdentifier("v")).isTrue();
        assertThat(Identifiers.isIdentifier("_mv_2")).isTrue();
        assertThat(Identifiers.isIdentifier("Orders_By_Day")).isTrue();
    }

    @Test
    void refusesAnythingThatCouldChangeTheStatement() {
        assertThat(Identifiers.isIdentifier(null)).isFalse();
        assertThat(Identifiers.isIdentifier("")).isFalse();
        assertThat(Identifiers.isIdentifier("2v")).isFalse();
        assertThat(Identifiers.isIdentifier("v; drop table t")).isFalse();
        assertThat(Identifiers.isIdentifier("v -- x")).isFalse();
        assertThat(Identifiers.isIdentifier("\"v\"")).isFalse();
        assertThat(Identifiers.isIdentifier("a".repeat(129))).isFalse();
    }
}
