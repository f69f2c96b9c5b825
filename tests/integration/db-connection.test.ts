import { sql } from 'kysely'
import { expect, test } from 'vitest'
import { openDatabase } from '#app/utils/db.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { startTcpProxy } from '#tests/support/private-server.ts'

const t = useTestDatabase()

test('a connection lost while a request holds it fails that request only, and the pool recovers', async () => {
	const url = new URL(t.url)
	const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) })
	url.port = String(proxy.port)
	const handle = await openDatabase({ databaseUrl: url.toString(), poolMax: 1 })
	try {
		await sql`SELECT 1`.execute(handle.db)
		const transaction = handle.db.transaction().execute(async (trx) => {
			await sql`SELECT 1`.execute(trx)
			// The server goes away while the client is checked out between two statements, when
			// the pool has no listener of its own on it: an unheard 'error' would end the process.
			await proxy.down()
			await new Promise((resolve) => setTimeout(resolve, 200))
			await sql`SELECT 1`.execute(trx)
		})
		await expect(transaction).rejects.toThrow()

		await proxy.up()
		await expect
			.poll(async () =>
				sql<{ one: number }>`SELECT 1 AS one`.execute(handle.db).then(
					(result) => result.rows[0]?.one,
					() => 'down',
				),
			)
			.toBe(1)
	} finally {
		await handle.close()
		await proxy.down()
	}
})
