package io.derive.batch;

import io.derive.client.DeriveConnectionFactory;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** Makes the adapter's connection factory injectable with {@code @Inject DeriveConnectionFactory}. */
@ApplicationScoped
public class DeriveConnectionFactoryProducer {

    // A CDI resource producer field: the container fills it from JNDI and CDI hands it out.
    @Produces
    @Resource(lookup = "eis/derive")
    private DeriveConnectionFactory connectionFactory;
}
