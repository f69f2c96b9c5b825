import { useHydrated } from 'remix-utils/use-hydrated'

const utc = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' })
const local = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' })

/** A date in the reader's time zone: the server renders UTC (so hydration matches), the browser then its own. */
export function LocalDate({ value }: { value: Date | string }) {
	const hydrated = useHydrated()
	const date = new Date(value)
	return <time dateTime={date.toISOString()}>{hydrated ? local.format(date) : `${utc.format(date)} (UTC)`}</time>
}
