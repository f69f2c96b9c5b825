import { useHydrated } from 'remix-utils/use-hydrated'

const formats = {
	date: {
		utc: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }),
		local: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }),
	},
	dateTime: {
		utc: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
		local: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }),
	},
}

/**
 * A date (with `time`, a date and time) in the reader's time zone. The server cannot know
 * it, so it renders UTC and says so (and hydration matches); the browser then shows its own.
 */
export function LocalDate({ value, time = false }: { value: Date | string; time?: boolean }) {
	const hydrated = useHydrated()
	const date = new Date(value)
	const format = formats[time ? 'dateTime' : 'date']
	return <time dateTime={date.toISOString()}>{hydrated ? format.local.format(date) : `${format.utc.format(date)} (UTC)`}</time>
}
