CREATE TABLE "crm_connections" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"token_sealed" text NOT NULL,
	"token_last4" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"paused_reason" text,
	"paused_at" timestamp with time zone,
	"not_before" timestamp with time zone,
	"last_sync_at" timestamp with time zone,
	"connected_by_id" text,
	"connected_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm_sync_items" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_kind" text NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"note_body" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"contact_id" text,
	"contact_created" boolean,
	"note_id" text,
	"note_unsure" boolean DEFAULT false NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"last_attempt_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "crm_connections" ADD CONSTRAINT "crm_connections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_sync_items" ADD CONSTRAINT "crm_sync_items_workspace_id_crm_connections_workspace_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."crm_connections"("workspace_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "crm_sync_items_event_uq" ON "crm_sync_items" USING btree ("workspace_id","event_id");--> statement-breakpoint
CREATE INDEX "crm_sync_items_due_idx" ON "crm_sync_items" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "crm_sync_items_lease_idx" ON "crm_sync_items" USING btree ("locked_until") WHERE status = 'syncing';--> statement-breakpoint
CREATE INDEX "crm_sync_items_log_idx" ON "crm_sync_items" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "crm_sync_items_email_idx" ON "crm_sync_items" USING btree ("workspace_id","email");