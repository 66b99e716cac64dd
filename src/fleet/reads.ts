/** History reads in flight at once, for the fleet's readers (explain, rerun). */
export const READS_IN_FLIGHT = 8;
