CREATE TABLE "demo_translations" (
	"demo_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"lang" text NOT NULL,
	"source_lang" text DEFAULT 'en' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"origin" text DEFAULT 'import' NOT NULL,
	"units" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"source_digest" text NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "demo_translations_demo_id_lang_pk" PRIMARY KEY("demo_id","lang")
);
--> statement-breakpoint
ALTER TABLE "demo_translations" ADD CONSTRAINT "demo_translations_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_translations" ADD CONSTRAINT "demo_translations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "demo_translations_workspace_idx" ON "demo_translations" USING btree ("workspace_id");