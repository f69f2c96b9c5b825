import { useEffect, useState } from 'react'
import { Form } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { TimeZoneOptions, timeZoneLabel } from '#app/components/select-options.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { CheckboxField, Field, SelectField } from '#app/components/ui/field.tsx'

const TIME_ZONE_SELECT_ID = 'time-zone'

/**
 * The student's time zone: a list that works without scripts; with them, a person who never chose
 * one finds their browser's zone selected, to save or change.
 */
export function TimeZoneCard({
	saved,
	zones,
	busy,
	error,
}: {
	saved: string | null
	zones: readonly string[]
	busy: boolean
	error?: string
}) {
	const hydrated = useHydrated()
	const [detected, setDetected] = useState<string | null>(null)
	useEffect(() => {
		const select = document.getElementById(TIME_ZONE_SELECT_ID)
		if (saved || !(select instanceof HTMLSelectElement)) return
		const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone
		if (browserZone && zones.includes(browserZone)) {
			select.value = browserZone
			setDetected(browserZone)
		}
	}, [saved, zones])
	return (
		<Card>
			<CardHeader>
				<CardTitle>Time Zone</CardTitle>
				<CardDescription>Live-session times on your dashboard, in reminders and notices are shown in this zone.</CardDescription>
			</CardHeader>
			<CardContent>
				<Form method="post" className="max-w-md space-y-4" aria-label="Time zone">
					<input type="hidden" name="intent" value="time-zone" />
					<SelectField
						label="Your time zone"
						errors={error ? [error] : undefined}
						help={
							hydrated && detected
								? `Your browser is set to ${timeZoneLabel(detected)}; save to use it.`
								: 'Until you choose, each course shows its own time zone.'
						}
						selectProps={{ id: TIME_ZONE_SELECT_ID, name: 'timeZone', defaultValue: saved ?? '' }}
					>
						<option value="">Each course's own time zone</option>
						<TimeZoneOptions zones={zones} />
					</SelectField>
					<Button type="submit" disabled={busy}>
						{busy ? 'Saving...' : 'Save Time Zone'}
					</Button>
				</Form>
			</CardContent>
		</Card>
	)
}

/** The private calendar feed: the address to copy (a subscribe link too) and a reset that stops the old one. */
export function CalendarFeedCard({ feedUrl, busy, error }: { feedUrl: string; busy: boolean; error?: string }) {
	const hydrated = useHydrated()
	const [copied, setCopied] = useState(false)
	const webcalUrl = feedUrl.replace(/^https?:/, 'webcal:')
	return (
		<Card>
			<CardHeader>
				<CardTitle>Calendar Feed</CardTitle>
				<CardDescription>
					Subscribe in Google Calendar, Apple Calendar or Outlook to see every live session of your courses; moved and cancelled sessions
					update there by themselves. Keep this address private: anyone with it can see your sessions.
				</CardDescription>
			</CardHeader>
			<CardContent className="space-y-4">
				<div className="max-w-xl space-y-2">
					<Field
						label="Your calendar address"
						inputProps={{ id: 'calendar-feed-url', readOnly: true, value: feedUrl, onFocus: (event) => event.currentTarget.select() }}
					/>
					<div className="flex flex-wrap items-center gap-3">
						{hydrated ? (
							<Button
								type="button"
								variant="outline"
								size="sm"
								onClick={() => {
									void navigator.clipboard?.writeText(feedUrl).then(() => setCopied(true))
								}}
							>
								Copy Address
							</Button>
						) : null}
						<a href={webcalUrl} className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
							Subscribe in your calendar app
						</a>
						<span role="status" className="text-sm text-green-800">
							{copied ? 'Copied' : ''}
						</span>
					</div>
				</div>
				<Form method="post" className="max-w-xl space-y-3 border-t border-slate-200 pt-4" aria-label="Reset calendar address">
					<input type="hidden" name="intent" value="reset-calendar" />
					<CheckboxField
						label="Yes, stop the current address (calendars using it stop updating) and make a new one"
						errors={error ? [error] : undefined}
						inputProps={{ name: 'confirm', required: true }}
					/>
					<Button type="submit" variant="outline" disabled={busy}>
						{busy ? 'Resetting...' : 'Reset Calendar Address'}
					</Button>
				</Form>
			</CardContent>
		</Card>
	)
}
