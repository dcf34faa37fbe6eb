CREATE TABLE "issued_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"number" integer NOT NULL,
	"order_id" uuid NOT NULL,
	"refund_id" uuid,
	"replaces_number" integer,
	"data" jsonb NOT NULL,
	"frozen" text DEFAULT 'issue' NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL,
	"first_downloaded_at" timestamp with time zone,
	CONSTRAINT "issued_documents_kind_known" CHECK ("issued_documents"."kind" in ('invoice', 'credit_note')),
	CONSTRAINT "issued_documents_credit_note_refund" CHECK (("issued_documents"."kind" = 'credit_note') = ("issued_documents"."refund_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "issued_documents" ADD CONSTRAINT "issued_documents_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issued_documents" ADD CONSTRAINT "issued_documents_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "issued_documents_kind_number_key" ON "issued_documents" USING btree ("kind","number");--> statement-breakpoint
CREATE UNIQUE INDEX "issued_documents_refund_key" ON "issued_documents" USING btree ("refund_id");--> statement-breakpoint
CREATE UNIQUE INDEX "issued_documents_one_invoice_per_order" ON "issued_documents" USING btree ("order_id") WHERE "issued_documents"."kind" = 'invoice' and "issued_documents"."replaces_number" is null;--> statement-breakpoint
CREATE INDEX "issued_documents_order_id_idx" ON "issued_documents" USING btree ("order_id");