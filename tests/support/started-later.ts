/**
 * Stands for an object that `beforeAll` creates, so that a file can name it at the top
 * (`const { stripe, payments } = useStripeStandIn()`, `const smtp = useSmtpServer()`) and use it in its tests as is.
 */
export function startedLater<T extends object>(name: string, current: () => T | undefined): T {
	const target = () => {
		const value = current()
		if (!value) throw new Error(`${name} is used before beforeAll started it`)
		return value
	}
	return new Proxy({} as T, {
		get(_, key) {
			const real = target()
			const value: unknown = Reflect.get(real, key, real)
			return typeof value === 'function' ? value.bind(real) : value
		},
		set(_, key, value) {
			return Reflect.set(target(), key, value)
		},
		has: (_, key) => Reflect.has(target(), key),
		getPrototypeOf: () => Reflect.getPrototypeOf(target()),
	})
}
