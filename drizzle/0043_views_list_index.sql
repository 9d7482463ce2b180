DROP INDEX "views_demo_started_idx";--> statement-breakpoint
CREATE INDEX "views_demo_started_idx" ON "views" USING btree ("demo_id","started_at","id");