package io.derive.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** What {@code --format} chooses: tables for people, or one JSON object per statement for tools. */
enum OutputFormat {
    TABLE, JSONL;

    /** Reads {@code --format table|jsonl}, naming the choices when the value is neither. */
    static final class Converter implements ITypeConverter<OutputFormat> {
        @Override
        public OutputFormat convert(String value) {
            if (value.equals("table")) {
                return TABLE;
            }
            if (value.equals("jsonl")) {
                return JSONL;
            }
            throw new TypeConversionException("unknown format '" + value + "' (expected table or jsonl)");
        }
    }
}
