package mad

// The attribute names of the SMP and PerfMgt rows of the class table.
func smpAttrName(id uint16) string  { return smpAttrNames[SMPAttribute(id)] }
func perfAttrName(id uint16) string { return perfAttrNames[PerfAttribute(id)] }
