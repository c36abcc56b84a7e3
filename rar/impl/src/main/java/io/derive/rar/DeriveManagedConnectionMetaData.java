package io.derive.rar;

import jakarta.resource.spi.ManagedConnectionMetaData;

/** Describes the engine behind a managed connection. */
final class DeriveManagedConnectionMetaData implements ManagedConnectionMetaData {

    @Override
    public String getEISProductName() {
        return "Derive";
    }

    @Override
    public String getEISProductVersion() {
        String version = DeriveManagedConnectionMetaData.class.getPackage().getImplementationVersion();
        return version == null ? "unknown" : version;
    }

    @Override
    public int getMaxConnections() {
        return 0; // no limit of its own: sessions are cheap, the container's pool decides
    }

    @Override
    public String getUserName() {
        return ""; // the engine has no users
    }
}
