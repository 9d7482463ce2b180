DROP INDEX "demos_workspace_created_idx";--> statement-breakpoint
CREATE INDEX "demos_workspace_created_id_idx" ON "demos" USING btree ("workspace_id","created_at","id");