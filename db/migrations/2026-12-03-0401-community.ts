import { type Kysely, sql } from 'kysely'

/**
 * A course's community (issue 44, docs/decisions/060): discussion threads and their posts. A
 * thread's opening post is a post like the replies (`opening`), so editing, deleting and hiding
 * treat both alike and a hidden post keeps its place. `submission_key` is the form's one-time key:
 * the same form sent twice at once makes one row (the unique index decides). The thread keeps
 * what its author's reply e-mails have covered (`replies_mailed_*`), so a reply mail says only
 * what is new and goes at most once an hour.
 */
export async function up(db: Kysely<unknown>) {
	await sql`CREATE TABLE community_threads (
		id serial PRIMARY KEY,
		course_id integer NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
		author_id uuid REFERENCES users (id) ON DELETE SET NULL,
		title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
		notify_replies boolean NOT NULL DEFAULT false,
		pinned boolean NOT NULL DEFAULT false,
		locked boolean NOT NULL DEFAULT false,
		submission_key uuid NOT NULL,
		last_activity_at timestamptz NOT NULL DEFAULT now(),
		replies_mailed_at timestamptz,
		replies_mailed_through integer NOT NULL DEFAULT 0,
		created_at timestamptz NOT NULL DEFAULT now(),
		UNIQUE (author_id, submission_key)
	)`.execute(db)
	await sql`CREATE INDEX community_threads_course_idx ON community_threads (course_id, pinned DESC, last_activity_at DESC, id DESC)`.execute(
		db,
	)
	await sql`CREATE TABLE community_posts (
		id serial PRIMARY KEY,
		thread_id integer NOT NULL REFERENCES community_threads (id) ON DELETE CASCADE,
		author_id uuid REFERENCES users (id) ON DELETE SET NULL,
		body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 10000),
		opening boolean NOT NULL DEFAULT false,
		submission_key uuid NOT NULL,
		created_at timestamptz NOT NULL DEFAULT now(),
		edited_at timestamptz,
		hidden_at timestamptz,
		hidden_by uuid REFERENCES users (id) ON DELETE SET NULL,
		deleted_at timestamptz,
		UNIQUE (author_id, submission_key)
	)`.execute(db)
	await sql`CREATE UNIQUE INDEX community_posts_one_opening ON community_posts (thread_id) WHERE opening`.execute(db)
	await sql`CREATE INDEX community_posts_thread_idx ON community_posts (thread_id, id)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`DROP TABLE community_posts`.execute(db)
	await sql`DROP TABLE community_threads`.execute(db)
}
