import { closeDatabase, initDatabase } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'

const env = getEnv()
const handle = await initDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
console.log(`Database (${handle.kind}) is at the latest migration.`)
await closeDatabase()
