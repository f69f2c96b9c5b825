/**
 * The job system (graphile-worker, docs/decisions/024): jobs are added in the caller's
 * transaction, runners in several processes share the work without doing any of it twice,
 * and every scheduled task names a task the runner knows.
 */
import { parseCrontab, run } from 'graphile-worker'
import { sql } from 'kysely'
import pg from 'pg'
import { expect, test } from 'vitest'
import { CRONTAB, TASKS } from '#app/jobs/index.server.ts'
import { startJobRunner, stopJobRunner } from '#app/services/jobs/runner.server.ts'
import { configureMailDelivery, enqueueMail } from '#app/services/mail/index.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { useSmtpServer } from '#tests/support/smtp-stand-in.ts'

const t = useTestDatabase()
const smtp = useSmtpServer()

const pendingJobs = async (task: string) =>
	(await sql<{ count: number }>`SELECT count(*)::int AS count FROM graphile_worker.jobs WHERE task_identifier = ${task}`.execute(t.db))
		.rows[0]!.count

test('a mail queued in a transaction that rolls back leaves neither a row nor a delivery job', async () => {
	await t.db
		.transaction()
		.execute(async (trx) => {
			await enqueueMail(trx, { to: 'nobody@example.com', subject: 'Never', text: 'Rolled back' })
			throw new Error('roll back')
		})
		.catch(() => {})
	expect(await t.db.selectFrom('email_outbox').select('id').where('subject', '=', 'Never').execute()).toEqual([])
	expect(await pendingJobs('deliver-mail')).toBe(0)
})

test('mail queued while two runners (two app processes) work is delivered once each', async () => {
	configureMailDelivery(parseEnv({ SMTP_URL: smtp.url, DATA_DIR: 'unused-data-dir', SESSION_SECRET: 'secret' }))
	await startJobRunner({ databaseUrl: t.url, logLevel: 'warn', tasks: TASKS, crontab: '' })
	const otherPool = new pg.Pool({ connectionString: t.url, max: 4 })
	// As the app's job pool does: a client whose server goes away (the test database dropped) must not end the run.
	otherPool.on('error', () => {})
	otherPool.on('connect', (client) => client.on('error', () => {}))
	const other = await run({ pgPool: otherPool, concurrency: 2, taskList: TASKS, noHandleSignals: true, logger: undefined })
	try {
		const subjects = Array.from({ length: 20 }, (_, index) => `Job mail ${index}`)
		await Promise.all(subjects.map((subject) => enqueueMail(t.db, { to: 'student@example.com', subject, text: subject })))
		await expect.poll(() => smtp.messages.length, { timeout: 20_000 }).toBe(20)
		expect(smtp.messages.map((message) => message.subject).sort()).toEqual([...subjects].sort())
		await expect.poll(() => pendingJobs('deliver-mail'), { timeout: 10_000 }).toBe(0)
		const sent = await t.db.selectFrom('email_outbox').select('status').where('subject', 'like', 'Job mail %').execute()
		expect(sent.map((row) => row.status)).toEqual(Array(20).fill('sent'))
	} finally {
		await other.stop()
		await otherPool.end()
		await stopJobRunner()
	}
})

test('every scheduled line names a task the runner has', () => {
	const scheduled = parseCrontab(CRONTAB).map((item) => item.task)
	expect(scheduled.length).toBeGreaterThan(0)
	for (const task of scheduled) expect(Object.keys(TASKS)).toContain(task)
})
