package openapi

// object is a JSON object whose members keep the order they were set in.
type object struct {
	members []member
}

// member is one name and value of an object.
type member struct {
	key string
	val any
}

// number is a JSON number, kept as its literal.
type number string

// get returns the value of key and whether it is set.
func (o *object) get(key string) (any, bool) {
	for _, m := range o.members {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// has reports whether key is set.
func (o *object) has(key string) bool {
	_, ok := o.get(key)
	return ok
}

// set replaces the value of key, or appends key when it is not set.
func (o *object) set(key string, val any) {
	for i, m := range o.members {
		if m.key == key {
			o.members[i].val = val
			return
		}
	}
	o.members = append(o.members, member{key, val})
}

// del removes key.
func (o *object) del(key string) {
	for i, m := range o.members {
		if m.key == key {
			o.members = append(o.members[:i], o.members[i+1:]...)
			return
		}
	}
}

// child returns the object value of key, or nil.
func (o *object) child(key string) *object {
	v, _ := o.get(key)
	c, _ := v.(*object)
	return c
}

// array returns the array value of key, or nil.
func (o *object) array(key string) []any {
	v, _ := o.get(key)
	a, _ := v.([]any)
	return a
}

// str returns the string value of key, or "".
func (o *object) str(key string) string {
	v, _ := o.get(key)
	s, _ := v.(string)
	return s
}
