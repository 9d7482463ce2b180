ALTER TABLE "oauth_apps" ALTER COLUMN "workspace_id" DROP NOT NULL;--> statement-breakpoint
-- The recorder browser extension's client, built into every instance: public (PKCE), usable by a member of
-- any workspace. Its redirect addresses come from RECORDER_EXTENSION_IDS, not from this row.
INSERT INTO "oauth_apps" ("id", "workspace_id", "name", "redirect_uris", "scopes", "is_public")
VALUES ('demoshare-recorder', NULL, 'Demoshare Recorder', '{}', '{demos:read,demos:write}', true)
ON CONFLICT ("id") DO NOTHING;
