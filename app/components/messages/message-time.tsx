import { useHydrated } from 'remix-utils/use-hydrated'

const utc = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })
const local = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })

/**
 * The server does not know the reader's time zone: it renders UTC (so the
 * hydrated page matches), and the browser then shows local time.
 */
export function MessageTime({ value, className }: { value: Date | string; className?: string }) {
	const hydrated = useHydrated()
	const date = new Date(value)
	return (
		<time dateTime={date.toISOString()} className={className}>
			{hydrated ? local.format(date) : `${utc.format(date)} UTC`}
		</time>
	)
}
