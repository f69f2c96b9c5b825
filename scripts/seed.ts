/** `npm run db:seed`: migrates the database and fills it with the demo data when it has no users yet. */
import { initStorage } from '#app/services/storage/index.server.ts'
import { closeDatabase, initDatabase } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from '#db/seed/demo.ts'

const env = getEnv()
const handle = await initDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
try {
	const storage = await initStorage(env)
	const { seeded } = await seedDemoData(handle.db, storage)
	if (seeded) {
		const logins = Object.values(DEMO_ACCOUNTS).map((account) => `  ${account.role.padEnd(10)} ${account.email}`)
		console.log(`Demo data seeded. Log in with password ${DEMO_PASSWORD} as:\n${logins.join('\n')}`)
	} else {
		console.log('Database already has data; nothing seeded.')
	}
} finally {
	await closeDatabase()
}
