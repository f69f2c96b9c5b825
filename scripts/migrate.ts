import { getEnv } from '#app/utils/env.server.ts'
import { withMigratedDatabase } from './lib/database-server.ts'
import { exitWithError } from './lib/processes.ts'

await withMigratedDatabase(getEnv(), async () => console.log('The database is at the latest migration.')).catch(exitWithError)
