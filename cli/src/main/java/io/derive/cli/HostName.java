package io.derive.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The table hosts {@code --host} may name as the default for new tables. */
public enum HostName {
    MEMORY("memory"), DERBY("derby");

    private final String label;

    HostName(String label) {
        this.label = label;
    }

    /** The host's name in SQL ({@code using memory}) and on the command line. */
    public String label() {
        return label;
    }

    /** Reads {@code --host}, naming the choices when the value is none of them. */
    public static final class Converter implements ITypeConverter<HostName> {
        @Override
        public HostName convert(String value) {
            return Arrays.stream(values()).filter(h -> h.label.equals(value)).findFirst()
                    .orElseThrow(() -> new TypeConversionException("unknown host '" + value + "' (expected "
                            + Arrays.stream(values()).map(HostName::label).collect(Collectors.joining(" or ")) + ")"));
        }
    }
}
