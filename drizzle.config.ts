import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Every domain's tables: a new domain's <name>.tables.ts is picked up without a central list.
  schema: './src/*/*.tables.ts',
  out: './drizzle',
});
