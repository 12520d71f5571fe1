CREATE TABLE "retrievability_crossings" (
	"user_id" integer NOT NULL,
	"span_ms" integer NOT NULL,
	"slot" bigint NOT NULL,
	"bound" integer NOT NULL,
	"trackers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "retrievability_crossings_user_id_span_ms_slot_bound_pk" PRIMARY KEY("user_id","span_ms","slot","bound")
);
--> statement-breakpoint
CREATE TABLE "retrievability_thresholds" (
	"user_id" integer NOT NULL,
	"bound" integer NOT NULL,
	"ratio" double precision NOT NULL,
	CONSTRAINT "retrievability_thresholds_user_id_bound_pk" PRIMARY KEY("user_id","bound")
);
--> statement-breakpoint
CREATE TABLE "tracker_stability_buckets" (
	"user_id" integer NOT NULL,
	"bucket" integer NOT NULL,
	"trackers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tracker_stability_buckets_user_id_bucket_pk" PRIMARY KEY("user_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "recall_log_hours" (
	"user_id" integer NOT NULL,
	"hour" integer NOT NULL,
	"recalls" integer DEFAULT 0 NOT NULL,
	"successes" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "recall_log_hours_user_id_hour_pk" PRIMARY KEY("user_id","hour")
);
--> statement-breakpoint
CREATE TABLE "recall_log_notebook_counts" (
	"user_id" integer NOT NULL,
	"notebook_id" integer NOT NULL,
	"successes" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "recall_log_notebook_counts_user_id_notebook_id_pk" PRIMARY KEY("user_id","notebook_id")
);
--> statement-breakpoint
ALTER TABLE "user_tracker_counts" ADD COLUMN "active_notes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_tracker_counts" ADD COLUMN "interval_ms" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "recall_log_hours" ADD CONSTRAINT "recall_log_hours_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;