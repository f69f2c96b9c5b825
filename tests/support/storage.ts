import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { setStorage } from '#app/services/storage/index.server.ts'
import { LocalFileStorage } from '#app/services/storage/local.server.ts'

/** A local file store in a temp directory of this test file's own, installed as the app's storage. */
export function useTestStorage() {
	const holder = {} as { storage: LocalFileStorage; dir: string }
	beforeAll(() => {
		holder.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-files-'))
		holder.storage = new LocalFileStorage(holder.dir)
		setStorage(holder.storage)
	})
	afterAll(() => {
		setStorage(undefined)
		fs.rmSync(holder.dir, { recursive: true, force: true })
	})
	return holder
}
