/**
 * One value per process, kept on globalThis under `key` so that the dev
 * server's module reloads reuse it instead of opening a second one.
 */
export function processWide<T extends object>(key: string, create: () => T): T {
	const store = globalThis as Record<string, unknown>
	if (!(key in store)) store[key] = create()
	return store[key] as T
}
