import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { migrations } from '#db/migrations/index.ts'

test('every migration file is listed, in name order', () => {
	const files = fs
		.readdirSync(path.resolve('db/migrations'))
		.filter((file) => file !== 'index.ts' && file.endsWith('.ts'))
		.map((file) => file.replace(/\.ts$/, ''))
		.sort()
	expect(Object.keys(migrations)).toEqual(files)
})
