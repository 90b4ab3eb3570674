/** Background jobs as the transports show and accept them: their types, statuses, and one job as it is presented. */
export { EVALUATION_JOB_TYPES, JOB_STATUSES, presentJob, V1_INGESTION_JOB } from "../services/jobs/jobs.js";
