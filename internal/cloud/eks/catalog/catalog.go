package catalog

import (
	"fmt"
	"sort"
)

// Catalog is the EC2 catalog: instance types sorted by name and price tables
// sorted by capacity type and region.
type Catalog struct {
	Types       []InstanceType `json:"types"`
	PriceTables []*PriceTable  `json:"prices"`
	// Sources lists the inputs with their snapshot dates, for version output.
	Sources []string `json:"sources"`

	byName map[string]int
	tables map[tableKey]*PriceTable
}

type tableKey struct {
	region string
	ct     CapacityType
}

// New indexes the catalog; it rejects duplicates, which would make a lookup
// depend on order.
func New(types []InstanceType, tables []*PriceTable, sources []string) (*Catalog, error) {
	c := &Catalog{Types: types, PriceTables: tables, Sources: sources}
	sort.Slice(c.Types, func(i, j int) bool { return c.Types[i].Name < c.Types[j].Name })
	sort.Slice(c.PriceTables, func(i, j int) bool {
		a, b := c.PriceTables[i], c.PriceTables[j]
		if a.CapacityType != b.CapacityType {
			return a.CapacityType < b.CapacityType
		}
		return a.Region < b.Region
	})
	if err := c.index(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Catalog) index() error {
	c.byName = make(map[string]int, len(c.Types))
	for i, t := range c.Types {
		if _, dup := c.byName[t.Name]; dup {
			return fmt.Errorf("instance type %q listed twice", t.Name)
		}
		c.byName[t.Name] = i
	}
	c.tables = make(map[tableKey]*PriceTable, len(c.PriceTables))
	for _, t := range c.PriceTables {
		k := tableKey{t.Region, t.CapacityType}
		if _, dup := c.tables[k]; dup {
			return fmt.Errorf("two %s price tables for %s", t.CapacityType, t.Region)
		}
		c.tables[k] = t
	}
	return nil
}

// Get returns the facts of one instance type.
func (c *Catalog) Get(name string) (*InstanceType, bool) {
	i, ok := c.byName[name]
	if !ok {
		return nil, false
	}
	return &c.Types[i], true
}
