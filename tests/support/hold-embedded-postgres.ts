/**
 * `node tests/support/hold-embedded-postgres.ts <dataDir> <server|command>`: opens the embedded
 * PostgreSQL in dataDir as a launcher of that role would, prints its URL, and holds it until
 * SIGTERM (then stops it) or SIGKILL (then leaves it running, as a crashed app does).
 */
import { openEmbeddedPostgres } from '../../scripts/lib/embedded-postgres.ts'

const [dataDir, role] = process.argv.slice(2)
if (!dataDir || (role !== 'server' && role !== 'command')) throw new Error('usage: hold-embedded-postgres.ts <dataDir> <server|command>')
const server = await openEmbeddedPostgres({ dataDir, role, log: () => {} })
console.log(JSON.stringify({ url: server.url }))
process.once('SIGTERM', async () => {
	await server.stop()
	process.exit(0)
})
setInterval(() => {}, 60_000)
