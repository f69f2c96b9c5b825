import type { EnrollmentStatus } from '#db/types.ts'

/** The statuses an admin may set on an enrolment, in the order the menu offers them. */
export const ENROLLMENT_STATUS_OPTIONS = ['active', 'pending', 'inactive', 'completed'] as const satisfies readonly EnrollmentStatus[]
