/** '24 hours', '1 hour', '45 minutes', '13 hours 30 minutes': a length of time as mails and the agreement say it. */
export function describeMinutes(minutes: number) {
	const hours = Math.floor(minutes / 60)
	const rest = minutes % 60
	const hourPart = hours === 1 ? '1 hour' : `${hours} hours`
	const minutePart = rest === 1 ? '1 minute' : `${rest} minutes`
	if (hours === 0) return minutePart
	return rest === 0 ? hourPart : `${hourPart} ${minutePart}`
}
