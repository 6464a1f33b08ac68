import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.lang.constant.ClassDesc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Build step (run by perfj-cli's pom after shading): rewrites the class files of the jar that
 * are older than Java 6 (picocli ships Java 5 class files) as Java 8 class files, with stack
 * maps computed by the JDK's class-file API. The JDK's ahead-of-time cache keeps only classes it
 * can verify with stack maps linked; picocli's old classes were loaded, parsed and verified
 * again on every start. Usage: java RaiseClassVersion.java JAR
 */
public final class RaiseClassVersion {
    private static final int JAVA_8 = 52;

    public static void main(String[] args) throws IOException {
        Path jar = Path.of(args[0]);
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(jar))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                entries.put(e.getName(), in.readAllBytes());
            }
        }
        ClassHierarchyResolver inJar = ClassHierarchyResolver.ofResourceParsing((ClassDesc d) -> {
            String s = d.descriptorString();
            byte[] b = entries.get(s.substring(1, s.length() - 1) + ".class");
            return b == null ? null : (InputStream) new ByteArrayInputStream(b);
        });
        ClassFile cf = ClassFile.of(ClassFile.StackMapsOption.GENERATE_STACK_MAPS,
                ClassFile.ClassHierarchyResolverOption.of(inJar.orElse(ClassHierarchyResolver.defaultResolver())));
        ClassTransform version = (cb, el) -> {
            if (el instanceof ClassFileVersion) {
                cb.withVersion(JAVA_8, 0);
            } else {
                cb.with(el);
            }
        };
        // rebuilding every method body is what makes the class-file API compute stack maps
        ClassTransform raise = version.andThen(ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL));
        int raised = 0;
        Path tmp = Files.createTempFile(jar.toAbsolutePath().getParent(), "raise", ".jar");
        try (OutputStream os = Files.newOutputStream(tmp); ZipOutputStream out = new ZipOutputStream(os)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                byte[] b = e.getValue();
                if (e.getKey().endsWith(".class") && b.length > 8 && ((b[6] & 0xff) << 8 | (b[7] & 0xff)) < 50) {
                    b = cf.transformClass(cf.parse(b), raise);
                    raised++;
                }
                out.putNextEntry(new ZipEntry(e.getKey()));
                out.write(b);
                out.closeEntry();
            }
        }
        Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING);
        System.out.println("RaiseClassVersion: " + raised + " class files of " + jar.getFileName() + " now Java 8");
    }
}
