import { HONEYPOT_FIELD } from '#app/utils/honeypot.ts'

/** The spam trap's field (docs/decisions/018), off-screen and out of reach; see app/utils/honeypot.ts. */
export function HoneypotField() {
	return (
		<div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
			<label htmlFor={`${HONEYPOT_FIELD}-trap`}>Leave this field empty</label>
			<input id={`${HONEYPOT_FIELD}-trap`} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
		</div>
	)
}
