/**
 * `npm run db:seed`: migrates the database and fills it with the demo data when it has no users yet.
 * `npm run db:seed -- --scale` adds the scale data set (db/seed/scale.ts) as well.
 */
import { initStorage } from '#app/services/storage/index.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from '#db/seed/demo.ts'
import { SCALE_ACCOUNTS, seedScaleData } from '#db/seed/scale.ts'
import { withMigratedDatabase } from './lib/database-server.ts'
import { exitWithError } from './lib/processes.ts'

const env = getEnv()
await withMigratedDatabase(env, async (handle) => {
	const storage = await initStorage(env)
	const { seeded } = await seedDemoData(handle.db, storage)
	if (seeded) {
		const logins = Object.values(DEMO_ACCOUNTS).map((account) => `  ${account.role.padEnd(10)} ${account.email}`)
		console.log(`Demo data seeded. Log in with password ${DEMO_PASSWORD} as:\n${logins.join('\n')}`)
	} else {
		console.log('Database already has data; nothing seeded.')
	}
	if (process.argv.includes('--scale')) {
		const started = performance.now()
		const scale = await seedScaleData(handle.db, { log: (line) => console.log(`  ${line}`) })
		const seconds = ((performance.now() - started) / 1000).toFixed(0)
		console.log(
			scale.seeded
				? `Scale data seeded in ${seconds} s. Log in as ${SCALE_ACCOUNTS.student} or ${SCALE_ACCOUNTS.admin}.`
				: 'Scale data already present; nothing added.',
		)
	}
}).catch(exitWithError)
