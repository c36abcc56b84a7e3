package io.derive.engine.exec;

import io.derive.engine.api.DeriveException;
import io.derive.engine.exec.query.StatementTextCounters;
import io.derive.engine.schema.Catalog;
import io.derive.engine.schema.ViewSchema;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StatementCacheTest {

    @Test
    void aTextRunAgainIsTheEntryParsedTheFirstTime() {
        StatementCache cache = new StatementCache(4, new StatementTextCounters());

        StatementCache.Entry first = cache.of("select 1");

        assertThat(cache.of("select 1")).isSameAs(first);
        assertThat(cache.of("select  1")).isNotSameAs(first);
    }

    @Test
    void theLeastRecentlyUsedTextIsGivenUpFirst() {
        StatementCache cache = new StatementCache(2, new StatementTextCounters());
        StatementCache.Entry a = cache.of("select 'a'");
        StatementCache.Entry b = cache.of("select 'b'");
        cache.of("select 'a'");

        cache.of("select 'c'");

        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.of("select 'a'")).isSameAs(a);
        assertThat(cache.of("select 'b'")).isNotSameAs(b);
    }

    @Test
    void sizeZeroKeepsNothing() {
        StatementCache cache = new StatementCache(0, new StatementTextCounters());
        StatementCache.Entry first = cache.of("select 1");

        assertThat(cache.size()).isZero();
        assertThat(cache.of("select 1")).isNotSameAs(first);
    }

    @Test
    void aTextThatFailsToParseIsNotKept() {
        StatementCache cache = new StatementCache(4, new StatementTextCounters());

        assertThatThrownBy(() -> cache.of("select 1 frm t"))
                .isInstanceOf(DeriveException.class)
                .extracting(e -> ((DeriveException) e).code()).isEqualTo(DeriveException.SYNTAX);
        assertThat(cache.size()).isZero();
    }

    @Test
    void eachRunCountsAsReusedOrParsed() {
        StatementTextCounters counters = new StatementTextCounters();
        StatementCache cache = new StatementCache(1, counters);

        cache.of("select 1");
        cache.of("select 1");
        cache.of("select 2");
        cache.of("select 1");

        assertThat(counters.reusedCount()).isEqualTo(1);
        assertThat(counters.parsedCount()).as("select 1 was given up for select 2").isEqualTo(3);
    }

    @Test
    void keptPlansAreForgottenOnceTheCommittedSchemaChanges() {
        StatementCache cache = new StatementCache(4, new StatementTextCounters());
        Catalog before = Catalog.empty();
        Catalog after = before.with(new ViewSchema("main", "v", List.of(), "select 1", null, null));
        AtomicInteger plannings = new AtomicInteger();
        StatementCache.Entry entry = cache.of("select 1");
        cache.forgetPlansOfEarlierSchemas(before);
        entry.plans().plan(before, () -> countPlanning(plannings));

        cache.forgetPlansOfEarlierSchemas(before);
        entry.plans().plan(before, () -> countPlanning(plannings));
        assertThat(plannings).as("the same schema: the plan is kept").hasValue(1);

        cache.forgetPlansOfEarlierSchemas(after);
        entry.plans().plan(before, () -> countPlanning(plannings));
        assertThat(plannings).as("a new schema committed: the plan was let go").hasValue(2);
        assertThat(cache.of("select 1")).as("the parse is kept").isSameAs(entry);
    }

    private static io.derive.engine.plan.PlanNode countPlanning(AtomicInteger plannings) {
        plannings.incrementAndGet();
        return null;
    }
}
