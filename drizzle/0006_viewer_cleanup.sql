CREATE INDEX "share_access_log_at_idx" ON "share_access_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "viewer_sessions_expires_idx" ON "viewer_sessions" USING btree ("expires_at");