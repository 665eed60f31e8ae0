-- Runs already waiting for a trigger when 0008 added wait_reason (a section between occurrences) kept NULL;
-- only a section waits with no other reason recorded, so they wait for a trigger.
UPDATE `runs` SET `wait_reason` = 'trigger' WHERE `status` = 'waiting' AND `wait_reason` IS NULL;
