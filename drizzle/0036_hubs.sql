CREATE TABLE "hub_collections" (
	"id" text PRIMARY KEY NOT NULL,
	"hub_id" text NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"hub_id" text NOT NULL,
	"collection_id" text NOT NULL,
	"demo_id" text NOT NULL,
	"share_id" text NOT NULL,
	"title" text,
	"description" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL,
	"cover_sha256" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_entry_covers" (
	"entry_id" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"sha256" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_opens" (
	"id" text PRIMARY KEY NOT NULL,
	"hub_id" text NOT NULL,
	"entry_id" text,
	"session_id" text,
	"internal" boolean DEFAULT false NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"hub_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"password_version" integer,
	"viewer_email" text,
	"viewer_name" text,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"referrer" text,
	"user_agent" text,
	"internal" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"identified_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hubs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"token" text NOT NULL,
	"name" text NOT NULL,
	"title" text NOT NULL,
	"intro" text DEFAULT '' NOT NULL,
	"cta_label" text,
	"cta_url" text,
	"password_hash" text,
	"password_version" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"require_identification" boolean DEFAULT false NOT NULL,
	"lead_fields" text[] DEFAULT '{}'::text[] NOT NULL,
	"allowed_emails" text[] DEFAULT '{}'::text[] NOT NULL,
	"allowed_domains" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hubs_token_unique" UNIQUE("token")
);
--> statement-breakpoint
ALTER TABLE "shares" ADD COLUMN "hub_id" text;--> statement-breakpoint
ALTER TABLE "hub_collections" ADD CONSTRAINT "hub_collections_hub_id_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."hubs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_entries" ADD CONSTRAINT "hub_entries_hub_id_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."hubs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_entries" ADD CONSTRAINT "hub_entries_collection_id_hub_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."hub_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_entries" ADD CONSTRAINT "hub_entries_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_entries" ADD CONSTRAINT "hub_entries_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_entry_covers" ADD CONSTRAINT "hub_entry_covers_entry_id_hub_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."hub_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_opens" ADD CONSTRAINT "hub_opens_hub_id_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."hubs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_opens" ADD CONSTRAINT "hub_opens_entry_id_hub_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."hub_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_opens" ADD CONSTRAINT "hub_opens_session_id_hub_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."hub_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_sessions" ADD CONSTRAINT "hub_sessions_hub_id_hubs_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."hubs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hubs" ADD CONSTRAINT "hubs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hubs" ADD CONSTRAINT "hubs_created_by_id_members_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hub_collections_hub_idx" ON "hub_collections" USING btree ("hub_id","position");--> statement-breakpoint
CREATE INDEX "hub_entries_hub_idx" ON "hub_entries" USING btree ("hub_id","collection_id","position");--> statement-breakpoint
CREATE INDEX "hub_opens_hub_idx" ON "hub_opens" USING btree ("hub_id","at");--> statement-breakpoint
CREATE INDEX "hub_sessions_hub_idx" ON "hub_sessions" USING btree ("hub_id","created_at");--> statement-breakpoint
CREATE INDEX "hubs_workspace_idx" ON "hubs" USING btree ("workspace_id","created_at");