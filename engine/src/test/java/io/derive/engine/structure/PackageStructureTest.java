package io.derive.engine.structure;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The engine's packages form a layered graph: no package reaches back to one that reaches it,
 * and {@code api}, what embedders compile against, names no implementation package. Checked on
 * the compiled classes, so a dependency through a fully qualified name counts as much as one
 * through an import.
 */
class PackageStructureTest {
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.derive.engine");

    /** Each package is a slice of its own: {@code exec} and {@code exec.ddl} are two. */
    @Test
    void noPackageIsPartOfACycle() {
        slices().matching("io.derive.(**)").namingSlices("$1")
                .should().beFreeOfCycles()
                .check(ENGINE);
    }

    @Test
    void apiDependsOnNothingButTheJdk() {
        classes().that().resideInAPackage("io.derive.engine.api")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.derive.engine.api", "java..", "javax.transaction.xa..")
                .check(ENGINE);
    }
}
