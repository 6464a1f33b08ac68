package io.perfj.profile;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The profile model sits below the views: {@code io.perfj.profile} reads the session and the
 * symbols, and the views (report, exports, serve, top, fleet, the command line) and perf's
 * quirks ({@code compat}) read it, never the other way round.
 */
class ProfileLayerTest {
    @Test
    void theProfileImportsNoViewAndNoQuirk() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.perfj");
        ArchRule rule = noClasses().that().resideInAPackage("io.perfj.profile..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.perfj.report..", "io.perfj.export..", "io.perfj.serve..", "io.perfj.top..",
                        "io.perfj.cli..", "io.perfj.fleet..", "io.perfj.compat..");
        rule.check(classes);
    }
}
