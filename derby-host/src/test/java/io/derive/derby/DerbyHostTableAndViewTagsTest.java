package io.derive.derby;

import io.derive.engine.DatabaseConfig;
import io.derive.engine.contract.TableAndViewTagsContract;

class DerbyHostTableAndViewTagsTest extends TableAndViewTagsContract {
    @Override
    protected DatabaseConfig config() {
        return DerbyHosts.config("derby-table-and-view-tags");
    }
}
