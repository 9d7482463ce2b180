// Every table of the service, one module per domain; drizzle-kit reads this file to generate migrations.
export * from '../accounts/accounts.tables';
export * from '../api-keys/api-keys.tables';
export * from '../events/events.tables';
export * from '../demos/demos.tables';
export * from '../oauth/oauth.tables';
export * from '../webhooks/webhooks.tables';
export * from '../shares/shares.tables';
export * from '../views/views.tables';
