import { type Kysely, sql } from 'kysely'

/**
 * Pay in instalments, the purchase (issue 41, docs/decisions/054 and 059): a checkout opened on a
 * course's plan records the plan bought (`plan_purchases`, one per checkout, then per enrolment)
 * and its schedule (`plan_instalments`), a snapshot of the course's plan at purchase. The first
 * payment takes the seat as a full payment does; the rest are charged later.
 *
 * The rules the rows must keep are the database's: numbers unique within a plan, a paid
 * instalment has its time, one invoice pays one instalment, and the instalments add up to the
 * plan's total (a constraint trigger checked at commit, so the rows of one plan are written
 * together).
 */
export async function up(db: Kysely<unknown>) {
	// The course pages show the plan on offer: a saved plan empties every process's page cache as a course does.
	await sql`CREATE TRIGGER course_payment_plans_public_content_changed
		AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON course_payment_plans
		FOR EACH STATEMENT EXECUTE FUNCTION notify_public_content_changed()`.execute(db)
	await sql`CREATE TABLE plan_purchases (
		id serial PRIMARY KEY,
		checkout_session_id text NOT NULL UNIQUE,
		provider text NOT NULL CHECK (provider IN ('stripe', 'test')),
		user_id uuid REFERENCES users (id) ON DELETE SET NULL,
		course_id integer NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
		enrollment_id integer UNIQUE REFERENCES enrollments (id) ON DELETE SET NULL,
		kind text NOT NULL CHECK (kind IN ('deposit', 'equal')),
		total_cents integer NOT NULL CHECK (total_cents > 0),
		status text NOT NULL DEFAULT 'pending'
			CHECK (status IN ('pending', 'expired', 'active', 'past_due', 'paused', 'completed', 'cancelled')),
		failing_since timestamptz,
		pause_reason text CHECK (pause_reason IN ('overdue', 'admin')),
		provider_subscription_id text UNIQUE,
		created_at timestamptz NOT NULL DEFAULT now(),
		updated_at timestamptz NOT NULL DEFAULT now(),
		CONSTRAINT plan_purchases_pause_has_reason CHECK ((status = 'paused') = (pause_reason IS NOT NULL)),
		CONSTRAINT plan_purchases_overdue_has_since CHECK (status <> 'past_due' OR failing_since IS NOT NULL)
	)`.execute(db)
	await sql`CREATE INDEX plan_purchases_course_idx ON plan_purchases (course_id)`.execute(db)
	await sql`CREATE INDEX plan_purchases_overdue_idx ON plan_purchases (failing_since) WHERE status = 'past_due'`.execute(db)
	await sql`CREATE TABLE plan_instalments (
		id serial PRIMARY KEY,
		plan_purchase_id integer NOT NULL REFERENCES plan_purchases (id) ON DELETE CASCADE,
		sequence integer NOT NULL CHECK (sequence BETWEEN 1 AND 7),
		is_deposit boolean NOT NULL DEFAULT false,
		label text NOT NULL CHECK (length(label) BETWEEN 1 AND 100),
		due_on date NOT NULL,
		amount_cents integer NOT NULL CHECK (amount_cents > 0),
		status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'paid', 'failed', 'paid_outside', 'cancelled')),
		paid_at timestamptz,
		failed_at timestamptz,
		failure_notified_at timestamptz,
		provider_invoice_id text UNIQUE,
		payment_intent_id text,
		CONSTRAINT plan_instalments_sequence_key UNIQUE (plan_purchase_id, sequence),
		CONSTRAINT plan_instalments_paid_has_time CHECK ((status IN ('paid', 'paid_outside')) = (paid_at IS NOT NULL)),
		CONSTRAINT plan_instalments_deposit_first CHECK (NOT is_deposit OR sequence = 1)
	)`.execute(db)
	await sql`CREATE FUNCTION plan_instalments_add_up() RETURNS trigger LANGUAGE plpgsql AS $$
	DECLARE
		plan_id integer := COALESCE(NEW.plan_purchase_id, OLD.plan_purchase_id);
		total integer;
		scheduled bigint;
	BEGIN
		SELECT total_cents INTO total FROM plan_purchases WHERE id = plan_id;
		IF total IS NULL THEN RETURN NULL; END IF;
		SELECT COALESCE(sum(amount_cents), 0) INTO scheduled FROM plan_instalments WHERE plan_purchase_id = plan_id;
		IF scheduled <> total THEN
			RAISE EXCEPTION 'the instalments of plan % add up to % cents, not its total of % cents', plan_id, scheduled, total
				USING ERRCODE = 'check_violation';
		END IF;
		RETURN NULL;
	END $$`.execute(db)
	await sql`CREATE CONSTRAINT TRIGGER plan_instalments_add_up AFTER INSERT OR UPDATE OF amount_cents, plan_purchase_id OR DELETE
		ON plan_instalments DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION plan_instalments_add_up()`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`DROP TABLE plan_instalments`.execute(db)
	await sql`DROP FUNCTION plan_instalments_add_up()`.execute(db)
	await sql`DROP TABLE plan_purchases`.execute(db)
	await sql`DROP TRIGGER course_payment_plans_public_content_changed ON course_payment_plans`.execute(db)
}
