import { text, timestamp } from 'drizzle-orm/pg-core';

/** Shared column builders, so every table stores ids and times the same way. */
export const id = () => text('id').primaryKey();
export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
