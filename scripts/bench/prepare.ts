/**
 * Run by scripts/bench/run.ts before the server starts: seeds the demo and scale data, signs in a scale student and a scale admin, and
 * prints what the bench needs as one JSON line.
 */
import { sql } from 'kysely'
import { initStorage } from '#app/services/storage/index.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { createSession } from '#app/utils/session.server.ts'
import { seedDemoData } from '#db/seed/demo.ts'
import { SCALE_ACCOUNTS, seedScaleData } from '#db/seed/scale.ts'
import { withMigratedDatabase } from '../lib/database-server.ts'

const env = getEnv()
await withMigratedDatabase(env, async ({ db }) => {
	const started = performance.now()
	await seedDemoData(db, await initStorage(env))
	await seedScaleData(db, { log: (line) => console.error(`  ${line}`) })
	const seedSeconds = (performance.now() - started) / 1000
	// The seed dirties gigabytes of pages; written out now, they do not compete with the first measurements.
	await sql`CHECKPOINT`.execute(db)

	const userId = async (email: string) =>
		(await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id
	const cookie = async (email: string) => (await createSession(db, await userId(email))).setCookie.split(';')[0]!
	const course = await db
		.selectFrom('courses')
		.select('id')
		.where('title', 'like', 'Scale Course %')
		.orderBy('id')
		.executeTakeFirstOrThrow()
	const enrollment = await db
		.selectFrom('enrollments')
		.select(['id', 'status'])
		.where('user_id', '=', await userId(SCALE_ACCOUNTS.student))
		.orderBy('id')
		.executeTakeFirstOrThrow()
	console.log(
		JSON.stringify({
			seedSeconds,
			studentCookie: await cookie(SCALE_ACCOUNTS.student),
			adminCookie: await cookie(SCALE_ACCOUNTS.admin),
			courseId: course.id,
			enrollment,
		}),
	)
})
